/** An archivist's own history entry as tests use it: a local event, with its own source. */
import type { HistoryEntry } from '../../src/shared/dating/history';

export const villageFete: HistoryEntry = {
  id: 'ashby-village-fete',
  kind: 'event',
  names: { en: ['Ashby Village Fete'] },
  from: '1923-07-14',
  to: '1923-07-14',
  evidence: 'dates',
  source: { work: 'Ashby parish magazine', title: 'August 1923' },
};
