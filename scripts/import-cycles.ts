/**
 * Finds import cycles among a source tree's modules, counting only imports that stay at run time:
 * a type-only import (`import type`, or every named binding marked `type`) is erased by the compiler
 * and cannot make modules wait on each other, so it is left out. Dynamic `import()` is lazy and left
 * out too. Paths resolve as tsconfig.base.json says (relative, and `@shared/*` to src-shared).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.(test|bench)\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

function resolveImport(root: string, from: string, specifier: string): string | null {
  const base = specifier.startsWith('.')
    ? resolve(dirname(from), specifier)
    : specifier.startsWith('@shared/')
      ? resolve(root, 'src-shared', specifier.slice('@shared/'.length))
      : null;
  if (!base) return null;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  const clause = statement.importClause;
  if (!clause) return false; // `import './x'` runs x
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/**
 * Each module's run-time imports inside the repository (absolute paths); with `typeImports`, its
 * type-only imports too.
 */
export function importGraph(root: string, dirs: string[], typeImports = false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = dirs.flatMap((dir) => sourceFiles(resolve(root, dir)));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const imports: string[] = [];
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || (!typeImports && isTypeOnly(statement))) continue;
      const target = resolveImport(root, file, specifier.text);
      if (target) {
        imports.push(target);
        if (!graph.has(target)) pending.push(target);
      }
    }
    graph.set(file, imports);
  }
  return graph;
}

/**
 * The strongly connected groups of more than one module (Tarjan), as paths relative to `root`, sorted.
 * With `typeImports`, type-only imports count as edges too (the cycles the compiler erases show up).
 */
export function importCycles(root: string, dirs: string[], typeImports = false): string[][] {
  const graph = importGraph(root, dirs, typeImports);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  function visit(node: string): void {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(relative(root, member));
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
