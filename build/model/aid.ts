// How a package name becomes the name part of an aid (`@scope/Pkg` → `scope-pkg`); the aid pattern itself is
// in contract.ts. Shared by translate, importers and the benchmark corpus, so one package gets one aid.
export function slugForAid(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/^@/, '')
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, 110) || 'x'
  );
}
