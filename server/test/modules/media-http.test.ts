import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentDisposition, parseRange } from '../../src/modules/media/media.http.js';
import { cleanFilename } from '../../src/modules/media/media.service.js';
import { variantKey, variantSpec } from '../../src/modules/media/media.variants.js';

describe('media HTTP helpers', () => {
  it('Content-Disposition: ASCII fallback without quotes, backslashes or controls; exact name in filename*', () => {
    assert.equal(
      contentDisposition('a "b"\\c\r\nd.png'),
      `inline; filename="a _b__cd.png"; filename*=UTF-8''a%20%22b%22%5Ccd.png`,
    );
    assert.equal(
      contentDisposition("it's (1)*.png"),
      `inline; filename="it's (1)*.png"; filename*=UTF-8''it%27s%20%281%29%2A.png`,
    );
    assert.equal(
      contentDisposition('日本.png'),
      `inline; filename="__.png"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.png`,
    );
    assert.equal(contentDisposition('100%.png'), `inline; filename="100_.png"; filename*=UTF-8''100%25.png`);
  });

  it('cleans client file names down to their last segment', () => {
    assert.equal(cleanFilename('../../etc/passwd', 'png'), 'passwd');
    assert.equal(cleanFilename('C:\\Users\\ada\\photo.jpg', 'jpg'), 'photo.jpg');
    assert.equal(cleanFilename('a\u0000b\u001f.png', 'png'), 'ab.png');
    assert.equal(cleanFilename('../', 'png'), 'upload.png');
    assert.equal(cleanFilename('..', 'png'), 'upload.png');
    assert.equal(cleanFilename(undefined, 'gif'), 'upload.gif');
    assert.equal(cleanFilename('x'.repeat(400), 'png').length, 255);
  });

  it('Range: single ranges served, unsatisfiable ones refused, anything else ignored', () => {
    assert.deepEqual(parseRange('bytes=0-9', 100), { start: 0, end: 9 });
    assert.deepEqual(parseRange('bytes=90-200', 100), { start: 90, end: 99 });
    assert.deepEqual(parseRange('bytes=10-', 100), { start: 10, end: 99 });
    assert.deepEqual(parseRange('bytes=-10', 100), { start: 90, end: 99 });
    assert.deepEqual(parseRange('bytes=-500', 100), { start: 0, end: 99 });
    assert.equal(parseRange('bytes=100-', 100), 'unsatisfiable');
    assert.equal(parseRange('bytes=-0', 100), 'unsatisfiable');
    assert.equal(parseRange('bytes=5-3', 100), undefined);
    assert.equal(parseRange('bytes=0-1,5-6', 100), undefined);
    assert.equal(parseRange('items=0-1', 100), undefined);
    assert.equal(parseRange('bytes=-', 100), undefined);
    assert.equal(parseRange(undefined, 100), undefined);
  });

  it('variant specs are canonical, so equal requests share one cached file', () => {
    assert.equal(variantSpec({}, 'png'), null);
    const a = variantSpec({ w: 10, fit: 'cover' }, 'jpg')!;
    const b = variantSpec({ w: 10 }, 'jpg')!;
    assert.equal(variantKey('prj_1', 'med_1', a), variantKey('prj_1', 'med_1', b));
    assert.equal(variantKey('prj_1', 'med_1', a), 'variants/prj_1/med_1/w10-hauto-cover.jpg');
    assert.equal(variantSpec({ format: 'jpeg' }, 'png')!.ext, 'jpg');
    assert.throws(() => variantSpec({ fit: 'contain' }, 'png'), /needs/);
  });
});
