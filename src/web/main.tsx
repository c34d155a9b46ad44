import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { prefetchFirstScreen } from './features/calls/first-screen';
import { queryClient } from './lib/query-client';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A dashboard's first screen is asked for now, while the page's code is still on the way.
prefetchFirstScreen(queryClient, window.location);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
