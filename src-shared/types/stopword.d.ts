// stopword 3.1.5 ships no types; only the two lists Cairn reads are declared.
declare module 'stopword' {
  export const eng: string[];
  export const zho: string[];
}
