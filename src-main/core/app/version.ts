/** Cairn's version, in a module of its own so a process that only talks to a running instance loads no core. */
export const CAIRN_VERSION = '0.1.0';
