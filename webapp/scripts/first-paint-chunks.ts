import { fileURLToPath, URL } from 'node:url';

/** The part of rolldown's ChunkingContext this file reads. */
type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

type Roots = {
  /** The app's entry module (index.html's script). */
  entry: string;
  /** The landing page's module. */
  landing: string;
  /** The modules the signed-in dashboard's first paint needs: the layout's and the page's. */
  signedIn: string[];
};

/**
 * Issue 38: the code-splitting groups of the build (vite.config.ts).
 * Left to the automatic splitting, what the dashboard's page and the
 * signed-in layout import beyond the entry chunk came as thirty small
 * chunks (an icon, a button, each Radix package), fetched only once the
 * page's chunk had arrived and been read: a second round of requests
 * ahead of the first paint, six at a time over HTTP/1.1, on Lighthouse's
 * slow-4G profile. Here they are two chunks, which the server preloads
 * with the HTML (dist/preload.json):
 *
 * - `shared`: what the landing page and the signed-in first paint both
 *   import (the button, the logo, the icons' base), so neither loads
 *   the other's code;
 * - `signed-in`: the rest of the layout's and the dashboard's static
 *   imports (the layout, the page, Radix's dropdown menu, the cards).
 *
 * Every module the entry imports statically stays in the entry chunk, and
 * everything loaded later (the dashboard's deferred cards, other pages)
 * is split as before. Relative paths are from the webapp's directory.
 */
export function firstPaintChunks(roots: Roots) {
  const abs = (module: string) => fileURLToPath(new URL(`../${module}`, import.meta.url));
  let groups: { shared: Set<string>; signedIn: Set<string> } | undefined;

  function closure(graph: ModuleGraph, from: string[]) {
    const seen = new Set<string>();
    const todo = [...from];
    while (todo.length > 0) {
      const id = todo.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      todo.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
    }
    return seen;
  }

  function groupsOf(graph: ModuleGraph) {
    if (groups) return groups;
    const entry = closure(graph, [abs(roots.entry)]);
    // A closure counts every module an index re-exports, used or not: the
    // entry importing lucide-react's index put every icon of the app in
    // `entry`, so none was grouped, and the icons the layout uses were
    // left in the layout's own chunk, which Rolldown then emitted
    // re-exporting a name it does not define ("Export 'app_layout_exports'
    // is not defined in module": every page failed). The entry imports
    // each icon from its own module (lucide-react/icons/<name>).
    const indexes = [...entry].filter((id) => /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/.test(id));
    if (indexes.length > 0) {
      throw new Error(`first-paint chunks: the entry chunk's modules import lucide-react's index (${indexes[0]}); import the icon from lucide-react/icons/<name> there`);
    }
    const landing = closure(graph, [abs(roots.landing)]);
    const signedIn = closure(graph, roots.signedIn.map(abs));
    groups = { shared: new Set(), signedIn: new Set() };
    for (const id of signedIn) {
      if (entry.has(id)) continue;
      (landing.has(id) ? groups.shared : groups.signedIn).add(id);
    }
    return groups;
  }

  return {
    // A group takes only the modules named here: by default a group also
    // takes what they import, which pulled React out of the entry chunk.
    includeDependenciesRecursively: false,
    groups: [
      {
        name: (id: string, ctx: ModuleGraph) => (groupsOf(ctx).shared.has(id) ? 'shared' : null),
        debugName: 'shared',
        priority: 2,
      },
      {
        name: (id: string, ctx: ModuleGraph) => (groupsOf(ctx).signedIn.has(id) ? 'signed-in' : null),
        debugName: 'signed-in',
        priority: 1,
      },
    ],
  };
}
