import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newProject } from '../helpers/factories.js';
import { makeImage } from '../helpers/media.js';

/** Issue 10 #6: malformed multipart bodies were 500s; they are the client's, so 400 (or 413). */
describeEachDb('media upload: malformed multipart', (ctx) => {
  const boundary = 'folioboundary';
  const form = (filename: string, data: Buffer, b = boundary) =>
    Buffer.concat([
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]);

  const send = async (token: string, contentType: string, payload: Buffer) =>
    call(ctx.app, {
      method: 'POST',
      url: '/v1/media/upload',
      headers: { ...bearer(token), 'content-type': contentType },
      payload,
    });

  it('no boundary, an empty, wrong or over-long boundary, a truncated body: 400, nothing stored', async () => {
    const { admin } = await newProject(ctx.app);
    const png = await makeImage('png', 32, 32);
    const long = 'b'.repeat(300);
    const cases: [string, string, Buffer][] = [
      ['no boundary', 'multipart/form-data', form('a.png', png)],
      ['empty boundary', 'multipart/form-data; boundary=', form('a.png', png)],
      ['wrong boundary', 'multipart/form-data; boundary=other', form('a.png', png)],
      ['over-long boundary', `multipart/form-data; boundary=${long}`, form('a.png', png, long)],
      [
        'truncated in the headers',
        `multipart/form-data; boundary=${boundary}`,
        form('a.png', png).subarray(0, 40),
      ],
      [
        'truncated in the file',
        `multipart/form-data; boundary=${boundary}`,
        form('a.png', png).subarray(0, 150 + png.length / 2),
      ],
    ];
    for (const [name, contentType, payload] of cases) {
      const res = await send(admin.token, contentType, payload);
      assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.data, null);
      assert.equal(res.body.error.code, 'validation_failed', name);
    }
    const listed = await call(ctx.app, { method: 'GET', url: '/v1/media', headers: bearer(admin.token) });
    assert.deepEqual(listed.body.data, []);
    assert.deepEqual(
      readdirSync(join(ctx.config.dataDir, 'media', 'tmp')),
      [],
      'no staging file left behind',
    );
  });

  it('a CR LF inside the quoted file name is not a 500', async () => {
    const { admin } = await newProject(ctx.app);
    const png = await makeImage('png', 16, 16);
    const res = await send(admin.token, `multipart/form-data; boundary=${boundary}`, form('a\r\nb.png', png));
    assert.ok(res.status === 201 || res.status === 400, `status ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.status === 201) assert.doesNotMatch(res.body.data.filename, /[\r\n]/);
  });
});
