import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../../../build/model/contract.ts';
import { fillPlaceholders, nameScore } from '../../../build/eval/agent/fill.ts';
import { guessRole } from '../../../build/model/input-roles.ts';
import type { TaskInput } from '../../../build/eval/agent/tasks.ts';

type PropertySchema = NonNullable<SchemaObject['properties']>[string];

const fill = (schema: SchemaObject, placeholders: string[], inputs: TaskInput[], staged: Record<string, string> = {}) =>
  fillPlaceholders({ schema, placeholders, inputs, staged, outDir: 'out' });

describe('fillPlaceholders', () => {
  it('gives input files their staged paths and output files a name in the out folder with the task extension', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        input: { type: 'string', role: 'input_file', description: 'Image to convert' },
        output: { type: 'string', role: 'output_file', description: 'Where to write', examples: ['out.webp'] },
      },
    };
    const r = fill(
      schema,
      ['input', 'output'],
      [
        { name: 'image', role: 'input_file', file: 'image.png' },
        { name: 'result', role: 'output_file', ext: '.jpg' },
      ],
      { image: 'in/image.png' },
    );
    expect(r.problems).toEqual([]);
    expect(r.values).toEqual({ input: 'in/image.png', output: 'out/result.jpg' });
    expect(r.outputs).toEqual([{ placeholder: 'output', path: 'out/result.jpg', role: 'output_file' }]);
  });

  it('names an output file the task did not ask for after the placeholder, with the extension of its example', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        text: { type: 'string', role: 'text' },
        out: { type: 'string', role: 'output_file', examples: ['qr.png'] },
      },
    };
    const r = fill(schema, ['text', 'out'], [{ name: 'url', role: 'url', value: 'https://example.com' }]);
    expect(r.values).toEqual({ text: 'https://example.com', out: 'out/out.png' });
    expect(r.sources).toEqual({ text: 'task', out: 'generated' });
  });

  it('matches inputs by name before order, so two text placeholders get the right values', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: { end: { type: 'string', role: 'text' }, start: { type: 'string', role: 'text' } },
    };
    const r = fill(
      schema,
      ['end', 'start'],
      [
        { name: 'start', role: 'text', value: '2024-01-15' },
        { name: 'end', role: 'text', value: '2024-03-01' },
      ],
    );
    expect(r.values).toEqual({ end: '2024-03-01', start: '2024-01-15' });
  });

  it('fills options and unmatched text from default, then example, then enum, and says where each came from', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        format: { type: 'string', role: 'option', default: 'json' },
        level: { type: 'integer', role: 'number', examples: [9] },
        mode: { type: 'string', role: 'option', enum: ['fast', 'slow'] },
      },
    };
    const r = fill(schema, ['format', 'level', 'mode'], []);
    expect(r.values).toEqual({ format: 'json', level: '9', mode: 'fast' });
    expect(r.sources).toEqual({ format: 'default', level: 'example', mode: 'enum' });
    expect(r.problems).toEqual([]);
  });

  it('prefers the task number over the default when the names agree', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: { width: { type: 'integer', role: 'number', default: 100 } },
    };
    expect(fill(schema, ['width'], [{ name: 'width', role: 'number', value: 32 }]).values).toEqual({ width: '32' });
  });

  it('says it cannot fill an undescribed placeholder, or a file to read the task does not give', () => {
    const r = fill(
      { type: 'object', properties: { input: { type: 'string', role: 'input_file' } } },
      ['model', 'input'],
      [{ name: 'text', role: 'text', value: 'hi' }],
    );
    expect(r.problems).toEqual([
      { name: 'model', kind: 'undescribed', reason: 'not described in input_schema' },
      { name: 'input', kind: 'unfilled', reason: 'a file to read, and the task gives no file for it' },
      { name: 'text', kind: 'no_place', reason: "the command has no placeholder for the task's text input" },
    ]);
    expect(r.values).toEqual({});
  });

  it('fills an undescribed placeholder only from an input of the same name', () => {
    expect(fill({ type: 'object' }, ['width'], []).problems).toEqual([
      { name: 'width', kind: 'undescribed', reason: 'not described in input_schema' },
    ]);
    expect(fill({ type: 'object' }, ['width'], [{ name: 'width', role: 'number', value: 5 }]).values).toEqual({
      width: '5',
    });
  });

  it('reports task inputs the command has no place for, except numbers and outputs that may stay defaults', () => {
    const schema: SchemaObject = { type: 'object', properties: { file: { type: 'string', role: 'input_file' } } };
    const r = fill(
      schema,
      ['file'],
      [
        { name: 'base', role: 'input_file', file: 'a.json' },
        { name: 'override', role: 'input_file', file: 'b.json' },
        { name: 'level', role: 'number', value: 9 },
        { name: 'result', role: 'output_file', ext: '.json' },
      ],
      { base: 'in/a.json', override: 'in/b.json' },
    );
    expect(r.values).toEqual({ file: 'in/a.json' });
    expect(r.problems).toEqual([
      { name: 'override', kind: 'no_place', reason: "the command has no placeholder for the task's input_file input" },
    ]);
  });

  it('passes JSON inputs as JSON text and never gives a file input to a text placeholder', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: { payload: { type: 'string', role: 'json' }, secret: { type: 'string', role: 'text' } },
    };
    const r = fill(
      schema,
      ['payload', 'secret'],
      [
        { name: 'payload', role: 'json', value: { sub: '42' } },
        { name: 'token', role: 'input_file', file: 't.jwt' },
      ],
      { token: 'in/t.jwt' },
    );
    expect(r.values.payload).toBe('{"sub":"42"}');
    expect(r.problems.map((p) => p.name).sort()).toEqual(['secret', 'token']);
  });

  it('takes the option value the need names over the default, punctuation and case aside', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        file: { type: 'string', role: 'input_file' },
        algorithm: { type: 'string', role: 'option', default: 'sha512', enum: ['md5', 'sha1', 'sha256', 'sha512'] },
        encoding: { type: 'string', role: 'option', default: 'hex', enum: ['hex', 'base64'] },
      },
    };
    const inputs: TaskInput[] = [{ name: 'file', role: 'input_file', file: 'a.txt' }];
    const r = fillPlaceholders({
      schema,
      placeholders: ['file', 'algorithm', 'encoding'],
      inputs,
      staged: { file: 'in/a.txt' },
      outDir: 'out',
      need: 'compute the SHA-1 checksum of a file',
    });
    expect(r.values).toEqual({ file: 'in/a.txt', algorithm: 'sha1', encoding: 'hex' });
    expect(r.sources).toMatchObject({ algorithm: 'need', encoding: 'default' });
    // No value named: the default, as before; a one-letter value never matches a word.
    const unit: PropertySchema = { type: 'string', role: 'option', default: 'ms', enum: ['ms', 's', 'h'] };
    const none = fillPlaceholders({
      schema: { type: 'object', properties: { unit } },
      placeholders: ['unit'],
      inputs: [],
      staged: {},
      outDir: 'out',
      need: 'convert 2 h to s',
    });
    expect(none.values.unit).toBe('ms');
  });

  it('reads a source-side option from the first value the need names, any other from the last', () => {
    const format: PropertySchema = { type: 'string', role: 'option', enum: ['json', 'yaml', 'toml', 'Star Wars'] };
    const r = fillPlaceholders({
      schema: { type: 'object', properties: { from: format, to: format, font: format } },
      placeholders: ['from', 'to', 'font'],
      inputs: [],
      staged: {},
      outDir: 'out',
      need: 'convert TOML to JSON in star-wars letters',
    });
    expect(r.values).toEqual({ from: 'toml', to: 'Star Wars', font: 'Star Wars' });
  });

  it('hands a list held as text to a placeholder that wants a JSON array as one', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        versions: { type: 'string', role: 'json', examples: ['["1.10.0","1.2.0"]'] },
        payload: { type: 'string', role: 'json', examples: ['{"a":1}'] },
      },
    };
    const fillWith = (versions: string) =>
      fill(
        schema,
        ['versions', 'payload'],
        [
          { name: 'versions', role: 'text', value: versions },
          { name: 'payload', role: 'text', value: 'not json' },
        ],
      ).values;
    expect(fillWith('2.0.0 1.10.0 1.2.0')).toEqual({ versions: '["2.0.0","1.10.0","1.2.0"]', payload: 'not json' });
    expect(fillWith('a b, c d').versions).toBe('["a b","c d"]');
    expect(fillWith('one\ntwo words\n').versions).toBe('["one","two words"]');
    expect(fillWith('["kept"]').versions).toBe('["kept"]');
  });

  it('gives a number to the placeholder its name or description fits, not to the first number of the command', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        width: { type: 'integer', role: 'number', default: 0, description: 'Width in pixels' },
        turn: { type: 'integer', role: 'number', default: 90, description: 'Degrees to rotate' },
      },
    };
    const r = fill(schema, ['width', 'turn'], [{ name: 'degrees', role: 'number', value: 180 }]);
    expect(r.values).toEqual({ width: '0', turn: '180' });
    // Nothing fits by name: in order of use, as before.
    const plain = fill(schema, ['width', 'turn'], [{ name: 'n', role: 'number', value: 5 }]);
    expect(plain.values).toEqual({ width: '5', turn: '90' });
  });

  it('leaves an optional file (one with a default) at its default when the task gives none', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        body: { type: 'string', role: 'text', examples: ['hi'] },
        attachment: { type: 'string', role: 'input_file', default: '', description: 'File to attach (empty: none)' },
        config: { type: 'string', role: 'input_file', examples: ['c.json'] },
      },
    };
    const r = fill(schema, ['body', 'attachment'], [{ name: 'body', role: 'text', value: 'Hello' }]);
    expect(r.values).toEqual({ body: 'Hello', attachment: '' });
    expect(r.problems).toEqual([]);
    const withFile = fill(
      schema,
      ['body', 'attachment'],
      [
        { name: 'body', role: 'text', value: 'Hello' },
        { name: 'file', role: 'input_file', file: 'a.txt' },
      ],
      { file: 'in/a.txt' },
    );
    expect(withFile.values.attachment).toBe('in/a.txt');
    // A file without a default is still the task's to give.
    expect(fill(schema, ['config'], []).problems.map((p) => p.name)).toEqual(['config']);
  });

  it('guesses roles for contracts written before roles existed', () => {
    expect(guessRole('output_dir', undefined)).toBe('output_dir');
    expect(guessRole('out', undefined)).toBe('output_file');
    expect(guessRole('dest', { type: 'string', description: 'the output file' })).toBe('output_file');
    expect(guessRole('repo_url', undefined)).toBe('url');
    expect(guessRole('width', { type: 'integer' })).toBe('number');
    expect(guessRole('input_file', undefined)).toBe('input_file');
    expect(guessRole('schema_file', undefined)).toBe('input_file');
    expect(guessRole('query', { type: 'string' })).toBe('text');
  });

  it('scores names: same, contained, a shared word (also from the description), none', () => {
    expect(nameScore('input_file', undefined, 'inputFile')).toBe(3);
    expect(nameScore('markdown_file', undefined, 'markdown')).toBe(2);
    expect(nameScore('src', { type: 'string', description: 'The markdown document' }, 'markdown')).toBe(1);
    expect(nameScore('src', undefined, 'markdown')).toBe(0);
  });
});
