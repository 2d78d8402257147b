// Every field kind, drawn like the server's markup (server/src/render/blocks/fields.rs):
// a label for every input, fieldsets with a legend for multi-part fields and choices,
// descriptions and inline error nodes linked with `aria-describedby`, and `aria-invalid`
// on the inputs of a field with an error. Inputs are uncontrolled; values are read from
// the form element on submit (see `values.ts`).
import { useState, type ReactNode } from 'react';
import type { Field } from './parse';
import { AMPM, shownParts } from './parts';
import { likertName } from './values';

/** The likert scale (spec 000 §3): values -2 to 2 with their labels. */
export const LIKERT_SCALE: ReadonlyArray<[number, string]> = [
  [-2, 'Strongly Disagree'],
  [-1, 'Disagree'],
  [0, 'Neutral'],
  [1, 'Agree'],
  [2, 'Strongly Agree'],
];

/** Props of [`FieldView`]. */
export interface FieldProps {
  field: Field;
  /** Element ids start with this (`form-<block id>`). */
  prefix: string;
  /** The field's error message, if any. */
  error?: string;
}

/** Ids of one field's element, description, error node and counter. */
export function fieldIds(prefix: string, field: Field) {
  const input = `${prefix}-${field.id}`;
  return { input, desc: `${input}-desc`, error: `${input}-error`, counter: `${input}-counter` };
}

function labelText(field: Field): string {
  return field.title.trim() || field.placeholder.trim() || field.id;
}

function Required({ on }: { on: boolean }) {
  return on ? (
    <>
      {' '}
      <span className="required">(required)</span>
    </>
  ) : null;
}

function DescAndError({ field, ids, error }: { field: Field; ids: ReturnType<typeof fieldIds>; error?: string }) {
  return (
    <>
      {field.description.trim() !== '' && (
        <p id={ids.desc} className="field-desc">
          {field.description}
        </p>
      )}
      <p id={ids.error} className="field-error" hidden={!error}>
        {error}
      </p>
    </>
  );
}

/** Attributes every input of a field shares. */
function aria(field: Field, ids: ReturnType<typeof fieldIds>, error?: string, extra = '') {
  const describedBy = [field.description.trim() !== '' ? ids.desc : '', ids.error, extra].filter(Boolean).join(' ');
  return { 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined };
}

/** One field of the form. */
export function FieldView({ field, prefix, error }: FieldProps) {
  const ids = fieldIds(prefix, field);
  switch (field.type) {
    case 'section':
      return (
        <div className="form-section">
          {field.title.trim() !== '' && <h3>{field.title}</h3>}
          {field.description.trim() !== '' && <p className="field-desc">{field.description}</p>}
          {field.underline && <hr />}
        </div>
      );
    case 'hidden':
      return null;
    case 'name':
    case 'address':
    case 'phone':
    case 'date':
    case 'time':
      return <Parts field={field} ids={ids} error={error} />;
    case 'radio':
    case 'checkbox':
      return <Choices field={field} ids={ids} error={error} />;
    case 'select':
      return (
        <div className={`field field--select${error ? ' field--error' : ''}`}>
          <label htmlFor={ids.input}>
            {labelText(field)}
            <Required on={field.required} />
          </label>
          <select id={ids.input} name={field.id} required={field.required} defaultValue="" {...aria(field, ids, error)}>
            <option value="">Select an option</option>
            {field.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
          <DescAndError field={field} ids={ids} error={error} />
        </div>
      );
    case 'likert':
      return <Likert field={field} ids={ids} error={error} />;
    case 'textarea':
      return <Textarea field={field} ids={ids} error={error} />;
    default:
      return <Single field={field} ids={ids} error={error} />;
  }
}

type ViewProps = { field: Field; ids: ReturnType<typeof fieldIds>; error?: string };

const INPUT_TYPES: Partial<Record<Field['type'], [string, string | undefined, 'decimal' | undefined]>> = {
  email: ['email', 'email', undefined],
  number: ['number', undefined, undefined],
  website: ['url', 'url', undefined],
  currency: ['text', undefined, 'decimal'],
  password: ['password', 'new-password', undefined],
};

function Single({ field, ids, error }: ViewProps) {
  const [type, autoComplete, inputMode] = INPUT_TYPES[field.type] ?? ['text', undefined, undefined];
  return (
    <div className={`field field--${field.type}${error ? ' field--error' : ''}`}>
      <label htmlFor={ids.input}>
        {labelText(field)}
        {field.type === 'currency' && field.currencySymbol ? ` (${field.currencySymbol})` : null}
        {field.type === 'twitter' ? ' (@username)' : null}
        <Required on={field.required} />
      </label>
      <input
        id={ids.input}
        type={type}
        name={field.id}
        required={field.required}
        placeholder={field.placeholder || undefined}
        autoComplete={autoComplete}
        inputMode={inputMode}
        {...aria(field, ids, error)}
      />
      <DescAndError field={field} ids={ids} error={error} />
    </div>
  );
}

/** A textarea; with a maximum, a live 'count / max' counter that takes an error class past it. */
function Textarea({ field, ids, error }: ViewProps) {
  const [count, setCount] = useState(0);
  const max = field.maxLength;
  const over = max > 0 && count > max;
  return (
    <div className={`field field--textarea${error || over ? ' field--error' : ''}`}>
      <label htmlFor={ids.input}>
        {labelText(field)}
        <Required on={field.required} />
      </label>
      <textarea
        id={ids.input}
        name={field.id}
        rows={5}
        required={field.required}
        placeholder={field.placeholder || undefined}
        onInput={(e) => setCount(e.currentTarget.value.length)}
        {...aria(field, ids, error, max > 0 ? ids.counter : '')}
      />
      {max > 0 && (
        <p id={ids.counter} className={`field-counter${over ? ' field-counter--error' : ''}`}>
          {count} / {max}
        </p>
      )}
      <DescAndError field={field} ids={ids} error={error} />
    </div>
  );
}

function Parts({ field, ids, error }: ViewProps) {
  const numeric = field.type === 'date' || field.type === 'time' || field.type === 'phone';
  const shown = shownParts(field);
  const inputs: ReactNode[] = shown.map((p) => {
    const id = `${ids.input}-${p.name}`;
    return (
      <div key={p.name}>
        <label htmlFor={id}>{p.label}</label>
        <input
          id={id}
          type={field.type === 'phone' ? 'tel' : 'text'}
          name={`${field.id}-${p.name}`}
          required={field.required && p.needed}
          autoComplete={p.autocomplete}
          inputMode={numeric ? 'numeric' : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
        />
      </div>
    );
  });
  return (
    <fieldset id={ids.input} className={`field field--${field.type}${error ? ' field--error' : ''}`} {...aria(field, ids)}>
      <legend>
        {labelText(field)}
        <Required on={field.required} />
      </legend>
      <div className="parts">
        {inputs}
        {field.type === 'time' && (
          <div>
            <label htmlFor={`${ids.input}-${AMPM.name}`}>{AMPM.label}</label>
            <select id={`${ids.input}-${AMPM.name}`} name={`${field.id}-${AMPM.name}`} required={field.required}>
              <option value="AM">AM</option>
              <option value="PM">PM</option>
            </select>
          </div>
        )}
      </div>
      <DescAndError field={field} ids={ids} error={error} />
    </fieldset>
  );
}

function Choices({ field, ids, error }: ViewProps) {
  const kind = field.type === 'radio' ? 'radio' : 'checkbox';
  return (
    <fieldset id={ids.input} className={`field field--${kind}${error ? ' field--error' : ''}`} {...aria(field, ids)}>
      <legend>
        {labelText(field)}
        <Required on={field.required} />
      </legend>
      {field.options.map((option, i) => (
        <div className="choice" key={option}>
          <input
            id={`${ids.input}-${i}`}
            type={kind}
            name={field.id}
            value={option}
            required={field.required && kind === 'radio'}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
          />
          <label htmlFor={`${ids.input}-${i}`}>{option}</label>
        </div>
      ))}
      <DescAndError field={field} ids={ids} error={error} />
    </fieldset>
  );
}

function Likert({ field, ids, error }: ViewProps) {
  return (
    <fieldset id={ids.input} className={`field field--likert${error ? ' field--error' : ''}`} {...aria(field, ids)}>
      <legend>
        {labelText(field)}
        <Required on={field.required} />
      </legend>
      <table className="likert">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Statement</span>
            </th>
            {LIKERT_SCALE.map(([value, label]) => (
              <th scope="col" key={value}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {field.options.map((question, q) => (
            <tr key={question}>
              <th scope="row">{question}</th>
              {LIKERT_SCALE.map(([value, label]) => {
                const id = `${ids.input}-${q}-${value + 2}`;
                return (
                  <td key={value}>
                    <input
                      id={id}
                      type="radio"
                      name={likertName(field, q)}
                      value={String(value)}
                      required={field.required}
                      aria-invalid={error ? true : undefined}
                    />
                    <label htmlFor={id} className="visually-hidden">
                      {question}: {label}
                    </label>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <DescAndError field={field} ids={ids} error={error} />
    </fieldset>
  );
}
