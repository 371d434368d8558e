import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EntryForWrite } from './content.repository.js';
import { createEntryMemo } from './entry-memo.js';

const entry = (id: string, fields = '{}'): EntryForWrite => ({
  id,
  projectId: 'prj_1',
  pageId: '/',
  instanceKey: id,
  componentId: 'Hero',
  fields,
  publishedFields: null,
  publishedAt: null,
  createdAt: 'then',
  updatedAt: 'then',
  version: 1,
  publishedVersion: null,
  sharedVersion: 0,
  declaredFields: '[]',
});

describe('entry memo', () => {
  it('is per project and entry', () => {
    const memo = createEntryMemo();
    memo.remember(entry('a'));
    assert.equal(memo.get('prj_1', 'a')?.id, 'a');
    assert.equal(memo.get('prj_2', 'a'), undefined, 'another project never sees it');
    assert.equal(memo.get('prj_1', 'b'), undefined);
  });

  it('leaves a contended entry to the locked path for a while, then offers it again', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const memo = createEntryMemo();
    memo.remember(entry('a'), true);
    assert.equal(memo.get('prj_1', 'a'), undefined);
    memo.remember(entry('a')); // a locked write since: still within the window
    assert.equal(memo.get('prj_1', 'a'), undefined);
    t.mock.timers.tick(1_001);
    assert.equal(memo.get('prj_1', 'a')?.id, 'a');
  });

  it('holds at most `max` entries and `maxChars` characters, dropping the least recently written', () => {
    const memo = createEntryMemo(2, 1_000);
    memo.remember(entry('a'));
    memo.remember(entry('b'));
    memo.remember(entry('a')); // written again: now the newest
    memo.remember(entry('c'));
    assert.deepEqual(
      ['a', 'b', 'c'].map((id) => memo.get('prj_1', id)?.id),
      ['a', undefined, 'c'],
    );
    memo.remember(entry('d', `{"x":"${'y'.repeat(990)}"}`));
    assert.equal(memo.get('prj_1', 'd')?.id, 'd');
    assert.ok(memo.size().chars <= 1_000);
    assert.equal(memo.size().entries, 1, 'the large one pushed the others out');
  });

  it('does not keep an entry of more than 256 KB of text', () => {
    const memo = createEntryMemo();
    memo.remember(entry('small'));
    memo.remember(entry('big', `{"x":"${'y'.repeat(300 * 1024)}"}`));
    assert.equal(memo.get('prj_1', 'big'), undefined);
    assert.equal(memo.get('prj_1', 'small')?.id, 'small');
    assert.equal(memo.size().entries, 1);
  });
});
