export { startEmbedded, type EmbeddedSystem } from './start-embedded';
