/** The runner's parts name the leaf module (src/main/logger.ts) through here: worker-pool.ts still does. */
export { silentLogger, type Logger } from '../../logger';
