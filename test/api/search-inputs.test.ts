// GET /api/v1/tools?inputs= and MCP search_tools {inputs}: an agent says what it holds (a file, a text …) and
// gets only tools whose command has a placeholder for each; without it, ranking alone decides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import {
  fileTextToPass,
  inputsFit,
  MAX_TEXT_FILE_BYTES,
  placeholderRoles,
  requiredFiles,
  takesInputs,
} from '../../build/model/input-roles.ts';
import { sampleContract } from '../helpers/temp-catalog.ts';
import { mcpToolCall, startTestServer, type TestServer } from '../helpers/server.ts';

const contract = (
  aid: string,
  task: string,
  cmd: string,
  properties: ToolContract['logic']['input_schema']['properties'],
) => {
  const c = sampleContract(aid, { identity: { task, tags: ['checksum', 'sha256', 'hash'] } });
  c.action.execute_cmd = cmd;
  c.logic.input_schema = { type: 'object', properties, required: Object.keys(properties ?? {}) };
  c.trust.reliability_score = 0.97;
  c.record = { verified: true };
  return c;
};
// Two tools for the same job: the better-matching one takes a text, the other a file.
const textHasher = contract(
  'npm-zz-text-hasher-v1',
  'Compute the SHA-256 checksum of a text: sha256 checksum hash digest of a string',
  'zz-text-hasher {text}',
  { text: { type: 'string', description: 'Text to hash', role: 'text', examples: ['hello'] } },
);
const fileHasher = contract('npm-zz-file-hasher-v1', 'SHA-256 checksum of a file', 'zz-file-hasher {file}', {
  file: { type: 'string', description: 'File to hash', role: 'input_file', examples: ['in.bin'] },
});
const twoFiles = contract('npm-zz-pair-hasher-v1', 'SHA-256 checksums of two files compared', 'zz-pair {a} {b}', {
  a: { type: 'string', description: 'First file', role: 'input_file', examples: ['a.bin'] },
  b: { type: 'string', description: 'Second file', role: 'input_file', examples: ['b.bin'] },
});

// Two linters alike in every word: one takes the document's text, the other reads a file.
const lintTask = 'zzqlint a yaml document and report its errors';
const textLinter = contract('npm-zz-a-lint-v1', lintTask, 'zz-a-lint {yaml}', {
  yaml: { type: 'string', description: 'The YAML text', role: 'text', examples: ['a: 1'] },
});
const fileLinter = contract('npm-zz-b-lint-v1', lintTask, 'zz-b-lint {yaml}', {
  yaml: { type: 'string', description: 'The YAML file', role: 'input_file', examples: ['a.yaml'] },
});

// Unpacks into a folder; its neighbour writes one archive file.
const unpacker = contract(
  'npm-zz-unpack-v1',
  'zzqarchive unpack an archive into a folder',
  'zz-unpack {archive} {dir}',
  {
    archive: { type: 'string', description: 'Archive', role: 'input_file', examples: ['a.tgz'] },
    dir: { type: 'string', description: 'Folder to write into', role: 'output_dir', examples: ['out'] },
  },
);
const packer = contract('npm-zz-pack-v1', 'zzqarchive unpack or pack an archive file', 'zz-pack {archive} {out}', {
  archive: { type: 'string', description: 'Archive', role: 'input_file', examples: ['a.tgz'] },
  out: { type: 'string', description: 'Archive to write', role: 'output_file', examples: ['b.tgz'] },
});

// A two-image diff whose words match better than the one-image resizer's, for a need holding one image.
const imageDiff = contract(
  'npm-zz-img-diff-v1',
  'zzqimage resize: zzqimage resize of two images compared',
  'zz-img-diff {a} {b} {out}',
  {
    a: { type: 'string', description: 'First image', role: 'input_file', examples: ['a.png'] },
    b: { type: 'string', description: 'Second image', role: 'input_file', examples: ['b.png'] },
    out: { type: 'string', description: 'Diff image', role: 'output_file', examples: ['d.png'] },
  },
);
const imageResize = contract(
  'npm-zz-img-resize-v1',
  'zzqimage resize: scale an image to a new width, keeping its aspect ratio, and write it to a new file',
  'zz-img-resize {image} {width}',
  {
    image: { type: 'string', description: 'Image', role: 'input_file', examples: ['a.png'] },
    width: { type: 'number', description: 'Width', role: 'number', examples: [32] },
  },
);
for (const c of [imageDiff, imageResize]) c.identity.tags = ['zzqimage'];

// Two makers of a zzqpdf document: the better-matching one reads only a declared binary format (.docx).
const docxReader = contract(
  'npm-zz-docx-pdf-v1',
  'zzqpdf document: make a zzqpdf document out of a docx document, a document in zzqpdf form',
  'zz-docx-pdf {docx}',
  { docx: { type: 'string', description: 'Word file', role: 'input_file', format: 'docx', examples: ['a.docx'] } },
);
// Two YAML-to-zzqdata converters alike in words: one declares it reads YAML, the other XML.
const yamlReader = contract('npm-zz-a-yaml-v1', 'zzqdata convert a document', 'zz-a-yaml {file}', {
  file: { type: 'string', description: 'YAML file', role: 'input_file', format: 'yaml', examples: ['a.yaml'] },
});
const xmlReader = contract('npm-zz-b-xml-v1', 'zzqdata convert a document', 'zz-b-xml {file}', {
  file: { type: 'string', description: 'XML file', role: 'input_file', format: 'xml', examples: ['a.xml'] },
});
const textReader = contract('npm-zz-text-pdf-v1', 'zzqpdf document from a text file', 'zz-text-pdf {file}', {
  file: { type: 'string', description: 'Text file', role: 'input_file', examples: ['a.txt'] },
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    extraTools: [
      textHasher,
      fileHasher,
      twoFiles,
      textLinter,
      fileLinter,
      unpacker,
      packer,
      imageDiff,
      imageResize,
      docxReader,
      textReader,
      yamlReader,
      xmlReader,
    ],
  });
}, 120_000);
afterAll(() => t?.cleanup());

const aids = (body: { results: { identity: { aid: string } }[] }) => body.results.map((r) => r.identity.aid);
const q = 'sha256%20checksum%20hash%20digest';

describe('placeholder roles', () => {
  it('each held input needs its own compatible placeholder', () => {
    expect(placeholderRoles(twoFiles)).toEqual(['input_file', 'input_file']);
    expect(takesInputs(['input_file', 'input_file'], ['input_file', 'input_file'])).toBe(true);
    expect(takesInputs(['input_file'], ['input_file', 'input_file'])).toBe(false);
    // A text placeholder takes a URL or JSON; a URL placeholder takes a text; a file only a file.
    expect(takesInputs(['text', 'input_file'], ['url', 'input_file'])).toBe(true);
    expect(takesInputs(['url'], ['text'])).toBe(true);
    expect(takesInputs(['text'], ['input_file'])).toBe(false);
    expect(takesInputs([], [])).toBe(true);
  });

  it('a held text file fits a file placeholder as itself, a text or JSON one as its content', () => {
    expect(inputsFit(['input_file'], ['text_file'])).toBe('direct');
    expect(inputsFit(['text'], ['text_file'])).toBe('content');
    expect(inputsFit(['json', 'input_file'], ['text_file', 'text_file'])).toBe('content');
    expect(inputsFit(['json', 'input_file'], ['text_file'])).toBe('direct');
    expect(inputsFit(['url'], ['text_file'])).toBe(null);
    expect(inputsFit(['text'], ['input_file'])).toBe(null);
  });

  it('counts the files a command must read: required file placeholders only', () => {
    expect(requiredFiles(twoFiles)).toBe(2);
    expect(requiredFiles(fileHasher)).toBe(1);
    expect(requiredFiles(textHasher)).toBe(0);
    const optional = structuredClone(imageDiff);
    optional.logic.input_schema.required = ['a', 'out'];
    expect(requiredFiles(optional)).toBe(1);
    const undeclared = structuredClone(imageDiff);
    delete undeclared.logic.input_schema.required;
    expect(requiredFiles(undeclared)).toBe(2);
  });

  it('a text file is small, valid UTF-8 and free of control characters', () => {
    const enc = new TextEncoder();
    expect(fileTextToPass(enc.encode('a: 1\r\n\tb: "é"\f\n'))).toBe('a: 1\r\n\tb: "é"\f\n');
    expect(fileTextToPass(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(null);
    expect(fileTextToPass(enc.encode('a\u0000b'))).toBe(null);
    expect(fileTextToPass(Uint8Array.from([0xc3, 0x28]))).toBe(null);
    expect(fileTextToPass(new Uint8Array(MAX_TEXT_FILE_BYTES + 1).fill(0x61))).toBe(null);
    expect(fileTextToPass(new Uint8Array(MAX_TEXT_FILE_BYTES).fill(0x61))).toHaveLength(MAX_TEXT_FILE_BYTES);
  });
});

describe('search by held inputs', () => {
  it('inputs=input_file keeps only commands that read a file; the text tool ranked first is left out', async () => {
    const all = await t.json(`/api/v1/tools?q=${q}`);
    expect(aids(all.body)[0]).toBe('npm-zz-text-hasher-v1');
    const files = await t.json(`/api/v1/tools?q=${q}&inputs=input_file`);
    expect(files.status).toBe(200);
    expect(files.body.inputs).toEqual(['input_file']);
    expect(aids(files.body)).not.toContain('npm-zz-text-hasher-v1');
    expect(aids(files.body)[0]).toBe('npm-zz-file-hasher-v1');
    const pair = await t.json(`/api/v1/tools?q=${q}&inputs=input_file,input_file`);
    expect(aids(pair.body)).toEqual(['npm-zz-pair-hasher-v1']);
    const text = await t.json(`/api/v1/tools?q=${q}&inputs=text`);
    expect(aids(text.body)[0]).toBe('npm-zz-text-hasher-v1');
    expect(aids(text.body)).not.toContain('npm-zz-file-hasher-v1');
  });

  it('inputs=text_file also finds commands taking the text, ranked below those reading a file', async () => {
    const held = await t.json(`/api/v1/tools?q=${q}&inputs=text_file`);
    expect(held.status).toBe(200);
    expect(held.body.inputs).toEqual(['text_file']);
    expect(aids(held.body)).toContain('npm-zz-text-hasher-v1');
    expect(aids(held.body)).toContain('npm-zz-file-hasher-v1');
    // Equal words: the linters tie on score (the first by id wins) until the text file is held.
    const lint = 'zzqlint%20yaml%20document%20errors';
    expect(aids((await t.json(`/api/v1/tools?q=${lint}`)).body).slice(0, 2)).toEqual([
      'npm-zz-a-lint-v1',
      'npm-zz-b-lint-v1',
    ]);
    expect(aids((await t.json(`/api/v1/tools?q=${lint}&inputs=text_file`)).body).slice(0, 2)).toEqual([
      'npm-zz-b-lint-v1',
      'npm-zz-a-lint-v1',
    ]);
    const pair = await t.json(`/api/v1/tools?q=${q}&inputs=text_file,input_file`);
    expect(aids(pair.body)).toEqual(['npm-zz-pair-hasher-v1']);
  });

  it('a tool that must read more files than the agent holds ranks below one it can fill', async () => {
    const words = 'zzqimage%20resize';
    expect(aids((await t.json(`/api/v1/tools?q=${words}`)).body).slice(0, 2)).toEqual([
      'npm-zz-img-diff-v1',
      'npm-zz-img-resize-v1',
    ]);
    // Ranked down, not left out: the agent may hold more than it said.
    expect(aids((await t.json(`/api/v1/tools?q=${words}&inputs=input_file`)).body).slice(0, 2)).toEqual([
      'npm-zz-img-resize-v1',
      'npm-zz-img-diff-v1',
    ]);
    expect(aids((await t.json(`/api/v1/tools?q=${words}&inputs=input_file,input_file`)).body)).toEqual([
      'npm-zz-img-diff-v1',
    ]);
    expect(aids((await t.json(`/api/v1/tools?q=${words}&inputs=text_file,input_file`)).body)[0]).toBe(
      'npm-zz-img-diff-v1',
    );
  });

  it('a tool reading only a declared binary format ranks below one that reads the text file held', async () => {
    const words = 'zzqpdf%20document';
    const order = ['npm-zz-docx-pdf-v1', 'npm-zz-text-pdf-v1'];
    expect(aids((await t.json(`/api/v1/tools?q=${words}`)).body).slice(0, 2)).toEqual(order);
    expect(aids((await t.json(`/api/v1/tools?q=${words}&inputs=text_file`)).body).slice(0, 2)).toEqual(
      [...order].reverse(),
    );
    // A binary file held (or a file of unknown kind): the .docx reader keeps its place.
    expect(aids((await t.json(`/api/v1/tools?q=${words}&inputs=input_file`)).body).slice(0, 2)).toEqual(order);
    // So does a file the caller calls text but names as a binary format (a small uncompressed PDF is ASCII).
    const named = await t.json(`/api/v1/tools?q=${words}&inputs=text_file&formats=docx`);
    expect(aids(named.body).slice(0, 2)).toEqual(order);
  });

  it('formats= ranks a tool that declares other read formats below one that reads the held file', async () => {
    const words = 'zzqdata%20convert%20document';
    const order = ['npm-zz-a-yaml-v1', 'npm-zz-b-xml-v1']; // a tie in words: first by id
    expect(aids((await t.json(`/api/v1/tools?q=${words}`)).body).slice(0, 2)).toEqual(order);
    const xml = await t.json(`/api/v1/tools?q=${words}&inputs=input_file&formats=.XML`);
    expect(xml.body.formats).toEqual(['.xml']);
    expect(aids(xml.body).slice(0, 2)).toEqual([...order].reverse());
    // JSON is YAML: the YAML reader stays first; "txt" says nothing, so nothing moves.
    expect(aids((await t.json(`/api/v1/tools?q=${words}&formats=json`)).body).slice(0, 2)).toEqual(order);
    expect(aids((await t.json(`/api/v1/tools?q=${words}&formats=txt`)).body).slice(0, 2)).toEqual(order);
    for (const bad of ['x/y', 'a,,b', '..xml', Array(9).fill('xml').join(',')]) {
      const res = await t.json(`/api/v1/tools?q=${words}&formats=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(JSON.stringify(res.body)).toContain('formats');
    }
    const viaMcp = await mcpToolCall(t, 'search_tools', { query: 'zzqdata convert document', formats: ['xml'] });
    expect(aids(JSON.parse(viaMcp.content[0]!.text)).slice(0, 2)).toEqual([...order].reverse());
  });

  it('inputs=output_dir keeps only commands that write into a folder', async () => {
    const all = aids((await t.json('/api/v1/tools?q=zzqarchive%20unpack&inputs=input_file')).body);
    expect(all).toEqual(expect.arrayContaining(['npm-zz-unpack-v1', 'npm-zz-pack-v1']));
    const dir = await t.json('/api/v1/tools?q=zzqarchive%20unpack&inputs=input_file,output_dir');
    expect(dir.body.inputs).toEqual(['input_file', 'output_dir']);
    expect(aids(dir.body)).toEqual(['npm-zz-unpack-v1']);
  });

  it('an unknown role or too many is a 422 naming the parameter', async () => {
    for (const bad of ['image', 'input_file,,text', 'number', Array(9).fill('text').join(',')]) {
      const res = await t.json(`/api/v1/tools?q=hash&inputs=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(JSON.stringify(res.body)).toContain('inputs');
    }
  });

  it('MCP search_tools takes the same filter', async () => {
    const call = (args: Record<string, unknown>) => mcpToolCall(t, 'search_tools', args);
    const found = await call({ query: 'sha256 checksum hash digest', inputs: ['input_file'] });
    expect(aids(JSON.parse(found.content[0]!.text))[0]).toBe('npm-zz-file-hasher-v1');
    const bad = await call({ query: 'hash', inputs: ['image'] });
    expect(bad.isError).toBe(true);
  });
});
