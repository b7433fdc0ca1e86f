/**
 * Plain data shapes shared by main, preload, renderer and the headless host, one file per domain
 * under models/. No behaviour here. Importers may name the domain file or this whole set.
 */
export * from './models/connections';
export * from './models/core-message';
export * from './models/sync';
export * from './models/search';
export * from './models/documents';
export * from './models/chat';
export * from './models/settings';
export * from './models/status';
export * from './models/mcp';
export * from './models/local-models';
