import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { SIDE_PANELS } from './app/panels';
import { lessonSection } from './lessons/lessonStore';
import { createShare } from './share/install';
import { registerShareSection } from './share/sections';
import { ShareContext } from './share/ShareBar';
import { SimStore } from './store/store';
import { StoreContext } from './store/useSim';
import { installTestHook } from './testing/testHook';

// The store (and the engine worker behind it) is created once, outside React, so StrictMode's
// double mounting never touches the engine.
const store = new SimStore();
installTestHook(store);
// Opens the link in the address bar (or the default experiment) and keeps the link in step.
// A lesson travels in a link too (its section is the lessons' own; the share layer knows none).
registerShareSection(lessonSection);
const share = createShare(
  store,
  SIDE_PANELS.map((p) => p.id),
);
void share.start();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <ShareContext.Provider value={share}>
        <App />
      </ShareContext.Provider>
    </StoreContext.Provider>
  </StrictMode>,
);
