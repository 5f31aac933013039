// The category rule: tag words count twice, task words once, ties go to the earlier category, none is other;
// MCP servers are a section of their own.
import { describe, expect, it } from 'vitest';
import { categoryOf, sectionOf } from '../../../build/model/category.ts';
import { toolContract } from '../../helpers/tool-contract.ts';

const tool = (task: string, tags: string[] = [], kind?: 'mcp_server') => {
  const c = toolContract('npm-x-v1', 'npm', {});
  c.identity = { ...c.identity, task, tags, ...(kind ? { kind } : {}) };
  return c;
};

describe('categoryOf', () => {
  it('reads tags and task words (plurals too)', () => {
    expect(categoryOf(tool('Merge PDF files', ['pdf'])).id).toBe('documents');
    expect(categoryOf(tool('Send emails over SMTP')).id).toBe('messaging');
    expect(categoryOf(tool('Resize images')).id).toBe('media');
  });
  it('weighs a tag word over a task word, and breaks ties by category order', () => {
    // task says json (data), the tag says image (media): 2 beats 1
    expect(categoryOf(tool('Read image metadata as json', ['image'])).id).toBe('media');
    // one word each for documents and data: documents comes first
    expect(categoryOf(tool('Convert csv to xlsx')).id).toBe('documents');
  });
  it('is other when no word matches; MCP servers are their own section', () => {
    expect(categoryOf(tool('Frobnicate the widgets')).id).toBe('other');
    expect(sectionOf(tool('Send emails', [], 'mcp_server')).id).toBe('mcp-servers');
    expect(sectionOf(tool('Send emails')).id).toBe('messaging');
  });
});
