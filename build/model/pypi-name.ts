// PEP 503: PyPI project names compare case-insensitively, with runs of `-`, `_` and `.` as one `-`
// (the folder name in a simple index, the key in a package list).
export const normalizePypiName = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');
