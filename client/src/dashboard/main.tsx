// The dashboard entry: renders the configuration area into the server's `#dashboard-root`.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { readConfig } from './config';
import './dashboard.css';

const root = document.getElementById('dashboard-root');
if (root) {
  const config = readConfig(root);
  createRoot(root).render(
    <StrictMode>
      <App config={config} />
    </StrictMode>,
  );
}
