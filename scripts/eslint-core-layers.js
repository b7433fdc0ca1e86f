/**
 * ESLint rule `cairn/core-layers`: the folders of src-main/core import each other in one direction,
 * after VS Code's layer rules (its `code-layering` / `code-import-patterns`: each part names what it
 * may import). The table (eslint.config.js `coreLayers`) gives each core folder the core folders its
 * files may import; its own folder and core's root files (errors.ts, validation.ts: below every
 * folder) are always allowed. A file in a folder the table does not list fails, so a new folder
 * takes its place in the order on purpose. Static and dynamic imports, re-exports and `import('…')`
 * types all count: a type-only import against the order is still a dependency against it.
 */
import { dirname, resolve, sep } from 'node:path';

const CORE = `src-main${sep}core${sep}`;
const ANY = '*';

/** The core folder of an absolute path ('.' for core's root files), or null outside src-main/core. */
function coreFolder(path) {
  const at = path.lastIndexOf(CORE);
  if (at < 0) return null;
  const parts = path.slice(at + CORE.length).split(sep);
  return parts.length === 1 ? '.' : parts[0];
}

/** @type {import('eslint').Rule.RuleModule} */
export const coreLayersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Core folders import only the core folders the layer table allows them.' },
    schema: [
      {
        type: 'object',
        properties: { layers: { type: 'object' } },
        required: ['layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      unlisted:
        'src-main/core/{{folder}} has no place in the order of core folders: add it to coreLayers in eslint.config.js with the folders it may import (docs/DESIGN.md).',
      against:
        "core/{{from}} may not import core/{{to}} ('{{specifier}}'): it imports only {{allowed}} (coreLayers in eslint.config.js; docs/DESIGN.md). Pass what is needed in through an interface or an event.",
    },
  },
  create(context) {
    const layers = context.options[0].layers;
    const file = context.filename;
    const from = coreFolder(file);
    if (from === null || from === '.') return {};
    const allowed = layers[from];
    if (allowed === undefined) {
      return {
        Program(node) {
          context.report({ node, messageId: 'unlisted', data: { folder: from } });
        },
      };
    }
    if (allowed === ANY) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const to = coreFolder(resolve(dirname(file), specifier));
      // Outside core (src-main/testing, for one) is other rules' business.
      if (to === null) return;
      if (to === from || to === '.' || allowed.includes(to)) return;
      context.report({
        node,
        messageId: 'against',
        data: {
          from,
          to,
          specifier,
          allowed: allowed.length > 0 ? allowed.join(', ') : 'no other core folder',
        },
      });
    };
    const literal = (source) => (source && source.type === 'Literal' ? source.value : undefined);
    return {
      ImportDeclaration: (node) => check(node, literal(node.source)),
      ExportNamedDeclaration: (node) => check(node, literal(node.source)),
      ExportAllDeclaration: (node) => check(node, literal(node.source)),
      ImportExpression: (node) => check(node, literal(node.source)),
      TSImportType: (node) => check(node, literal(node.argument?.literal ?? node.source)),
    };
  },
};

/**
 * The folders in an order where each comes after every folder it may import, or the folders of a
 * cycle the table allows (then there is no such order).
 */
export function layerOrder(layers) {
  const order = [];
  const state = new Map();
  const visit = (folder, path) => {
    if (state.get(folder) === 'done') return null;
    if (state.get(folder) === 'visiting') return [...path.slice(path.indexOf(folder)), folder];
    state.set(folder, 'visiting');
    const below = layers[folder] === ANY ? [] : (layers[folder] ?? []);
    for (const next of below) {
      const cycle = visit(next, [...path, folder]);
      if (cycle) return cycle;
    }
    state.set(folder, 'done');
    order.push(folder);
    return null;
  };
  for (const folder of Object.keys(layers)) {
    const cycle = visit(folder, []);
    if (cycle) return { cycle };
  }
  return { order };
}
