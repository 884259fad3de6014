import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { SimStore } from './store/store';
import { StoreContext } from './store/useSim';
import { installTestHook } from './testing/testHook';

// The store (and the engine worker behind it) is created once, outside React, so StrictMode's
// double mounting never touches the engine.
const store = new SimStore();
installTestHook(store);
void store.load();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App />
    </StoreContext.Provider>
  </StrictMode>,
);
