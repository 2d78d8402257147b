// The menu as an accessible tabs widget: one tab active at a time (the first at start),
// Left/Right arrows move with wrap-around (Home/End jump to the ends), Enter or Space
// activates the focused tab, and only the active tab's panel is shown.
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { MenuTab } from '../../generated/types';
import './menu-tabs.css';

/** Props of [`MenuTabs`]. */
export interface MenuTabsProps {
  /** The tabs, at least one. */
  tabs: MenuTab[];
}

export function MenuTabs({ tabs }: MenuTabsProps) {
  const [active, setActive] = useState(0);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const base = useId();

  const select = (index: number) => {
    const next = (index + tabs.length) % tabs.length;
    setActive(next);
    buttons.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    switch (event.key) {
      case 'ArrowRight':
        select(index + 1);
        break;
      case 'ArrowLeft':
        select(index - 1);
        break;
      case 'Home':
        select(0);
        break;
      case 'End':
        select(tabs.length - 1);
        break;
      case 'Enter':
      case ' ':
        setActive(index);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div className="menu-tabs">
      <div role="tablist" className="menu-tabs__list" aria-label="Menu">
        {tabs.map((tab, index) => (
          <button
            key={index}
            ref={(node) => {
              buttons.current[index] = node;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${index}`}
            aria-selected={index === active}
            aria-controls={`${base}-panel-${index}`}
            tabIndex={index === active ? 0 : -1}
            className="menu-tabs__tab"
            onClick={() => setActive(index)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.title}
          </button>
        ))}
      </div>
      {tabs.map((tab, index) => (
        <div
          key={index}
          role="tabpanel"
          id={`${base}-panel-${index}`}
          aria-labelledby={`${base}-tab-${index}`}
          hidden={index !== active}
          tabIndex={0}
          className="menu-tabs__panel"
        >
          <ul className="menu-tabs__items">
            {tab.items.map((item, itemIndex) => (
              <li key={itemIndex} className="menu-tabs__item">
                <span className="menu-tabs__name">{item.name}</span>
                {item.price !== '' && <span className="menu-tabs__price">{item.price}</span>}
                {item.description !== '' && <p className="menu-tabs__description">{item.description}</p>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
