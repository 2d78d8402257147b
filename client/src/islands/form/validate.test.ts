import { describe, expect, it } from 'vitest';
import type { Field } from './parse';
import { parseFormBlock } from './parse';
import { checkField, isEmail } from './validate';

function field(over: Partial<Field>): Field {
  return { id: 'f', type: 'text', title: 'F', description: '', placeholder: '', required: false, options: [], maxLength: 0, showCountryCode: false, underline: false, ...over };
}

describe('the checks before sending', () => {
  it('follow the email pattern and its length of 3 to 256', () => {
    expect(isEmail('a@b.co')).toBe(true);
    expect(isEmail('a.b+c@mail.example.info')).toBe(true);
    for (const bad of ['ada@example', 'ada@.com', '@example.com', 'a b@example.com', 'ada@example.comcom', 'a@b@c.com', 'ada@example.c']) {
      expect(isEmail(bad), bad).toBe(false);
    }
    expect(isEmail(`${'a'.repeat(250)}@b.com`)).toBe(true);
    expect(isEmail(`${'a'.repeat(251)}@b.com`)).toBe(false);
  });

  it('let an optional empty email pass and name a required empty field', () => {
    expect(checkField(field({ type: 'email' }), '')).toBeNull();
    expect(checkField(field({ type: 'email', required: true, title: 'Email' }), ' ')).toBe('Email is required.');
    expect(checkField(field({ type: 'name', required: true, title: '' }), ['Ada', ''])).toBe('f is required.');
    expect(checkField(field({ type: 'address', required: true }), ['1 Main', '', 'Town', 'ST', '12345', 'US'])).toBeNull();
    expect(checkField(field({ type: 'checkbox', required: true }), [])).toBe('F is required.');
    expect(checkField(field({ type: 'likert', required: true, options: ['A', 'B'] }), { A: ['1'] })).toBe('F is required.');
    expect(checkField(field({ type: 'likert', required: true, options: ['A', 'B'] }), { A: ['1'], B: [] })).toBe('F is required.');
    expect(checkField(field({ type: 'likert', required: true, options: ['A', 'B'] }), { A: ['1'], B: ['-2'] })).toBeNull();
  });

  it('hold textareas to their maximum, none when it is 0', () => {
    expect(checkField(field({ type: 'textarea', maxLength: 3 }), 'abcd')).toBe('You have exceeded the character limit.');
    expect(checkField(field({ type: 'textarea', maxLength: 3 }), 'abc')).toBeNull();
    expect(checkField(field({ type: 'textarea', maxLength: 0 }), 'abcd'.repeat(100))).toBeNull();
  });

  it('want 5-digit zips for US addresses only', () => {
    const address = field({ type: 'address' });
    expect(checkField(address, ['', '', '', '', '1234', 'United States'])).toBe('Zip codes in the United States have exactly 5 digits.');
    expect(checkField(address, ['', '', '', '', '12345', 'USA'])).toBeNull();
    expect(checkField(address, ['', '', '', '', 'SW1A 1AA', 'United Kingdom'])).toBeNull();
  });

  it('treat a non-numeric or negative maximum as none', () => {
    const form = parseFormBlock({ formId: 'x', fields: [{ id: 'a', type: 'textarea', maxLength: -4 }, { id: 'b', type: 'textarea', maxLength: 'many' }, { id: 'c', type: 'nope' }] });
    expect(form!.fields.map((f) => f.maxLength)).toEqual([0, 0]);
  });
});
