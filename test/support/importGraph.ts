// The repository's real import graph, read from the TypeScript sources of every workspace package
// (recursively, client/webview included): each edge is one import, export-from, require or dynamic
// import, type-only ones too (a cycle through a type still ties two modules' meanings together).
// Package specifiers (@rlm-plan/core/plan/ast) are resolved through the package's exports map to
// its built file and mapped back to the source; relative ones to the sibling .ts file. The
// architecture tests ask it for cycles and for imports that go below the core's front door.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";

export const repositoryRoot = join(__dirname, "..", "..", "..");

const SKIPPED = new Set(["out", "node_modules", "dist", ".e2e", ".vscode-test", ".git"]);

/** The workspace folders of the root package.json, plus client/webview (a project of its own). */
export function packageFolders(root = repositoryRoot): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces: string[] };
  return manifest.workspaces;
}

/** Every TypeScript source file under a folder, recursively, without build output or declarations. */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : sourceFiles(path);
    return /\.(?:ts|mts|cts)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Comments name other modules in prose; only code counts. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** The module specifiers a source text imports, in order. */
export function specifiersOf(text: string): string[] {
  return [...code(text).matchAll(/(?:\bfrom\s+|^\s*import\s+|\brequire\(\s*|\bimport\(\s*)["']([^"']+)["']/gm)].map(
    (m) => m[1] as string,
  );
}

/** Maps a built file (…/out/…/x.js) of the repository back to its source (…/src/…/x.ts). */
function sourceOfBuilt(path: string): string | undefined {
  const candidates = [
    path.replace(`${sep}out${sep}`, `${sep}src${sep}`).replace(/\.js$/, ".ts"),
    // client/webview's build keeps its rootDir (client/) under out/.
    path.replace(`${sep}webview${sep}out${sep}`, sep).replace(/\.js$/, ".ts"),
  ];
  return candidates.find((candidate) => existsSync(candidate));
}

/** The source file a specifier of `from` names, or undefined for a module outside the repository. */
export function resolveSource(from: string, specifier: string, root = repositoryRoot): string | undefined {
  if (specifier.startsWith(".")) {
    const base = resolve(dirname(from), specifier.replace(/\.js$/, ""));
    return [`${base}.ts`, join(base, "index.ts")].find((candidate) => existsSync(candidate));
  }
  if (!/^(@rlm-plan\/|rlm-plan($|\/)|rlm-plan-client($|\/))/.test(specifier)) return undefined;
  try {
    const built = createRequire(from).resolve(specifier);
    return relative(root, built).startsWith("..") ? undefined : sourceOfBuilt(built);
  } catch {
    return undefined;
  }
}

export interface ImportEdge {
  /** Paths relative to the repository root, with forward slashes. */
  readonly from: string;
  readonly to: string;
  readonly specifier: string;
}

export const slashed = (path: string): string => path.split(sep).join("/");

/** Every import between two source files of the given folders (relative to the root). */
export function importEdges(folders: readonly string[] = packageFolders(), root = repositoryRoot): ImportEdge[] {
  return folders.flatMap((folder) =>
    sourceFiles(join(root, folder)).flatMap((file) =>
      specifiersOf(readFileSync(file, "utf8")).flatMap((specifier) => {
        const target = resolveSource(file, specifier, root);
        return target === undefined
          ? []
          : [{ from: slashed(relative(root, file)), to: slashed(relative(root, target)), specifier }];
      }),
    ),
  );
}

/**
 * The graph's cycles, one per strongly connected component of more than one module (or a module
 * importing itself), each written as the modules of the component in sorted order.
 */
export function cycles(edges: readonly { readonly from: string; readonly to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  // Tarjan's algorithm, iteratively (the graph has hundreds of modules; recursion would do too).
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; child: number };
      const children = next.get(frame.node) ?? [];
      if (frame.child < children.length) {
        const child = children[frame.child++] as string;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(child) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && children.includes(frame.node);
        if (component.length > 1 || selfLoop) found.push(component.sort());
      }
    }
  }
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}
