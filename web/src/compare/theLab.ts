/**
 * The app's one comparison lab: results survive switching tabs, and a shared link reads and
 * sets its schemes and baseline (web/src/share/) without going through the panel.
 */
import { CompareLab } from './lab';

export const compareLab = new CompareLab();
