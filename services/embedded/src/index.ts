export { startEmbedded, type EmbeddedSystem } from './start-embedded';
export { serviceStarters } from './service-starters';
