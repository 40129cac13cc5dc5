import { parse } from 'csv-parse/sync';
import { csvStringifier } from './csv-stringifier.js';

async function csv(rows: object[]): Promise<string> {
  const stringifier = csvStringifier(['text', 'number', 'flag']);
  const done = new Promise<string>((resolve, reject) => {
    let text = '';
    stringifier.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    stringifier.on('end', () => resolve(text));
    stringifier.on('error', reject);
  });
  for (const row of rows) stringifier.write(row);
  stringifier.end();
  return done;
}

describe(csvStringifier.name, () => {
  it('writes a header and CRLF lines, quoting fields with commas, quotes or line breaks', async () => {
    const text = await csv([
      { text: 'a, "b"\nc\rd', number: 1, flag: true },
      { text: null, number: null, flag: false },
    ]);

    expect(text).toBe('text,number,flag\r\n"a, ""b""\nc\rd",1,1\r\n,,0\r\n');
    expect(parse(text)).toEqual([
      ['text', 'number', 'flag'],
      ['a, "b"\nc\rd', '1', '1'],
      ['', '', '0'],
    ]);
  });

  it.each(['=SUM(A1)', '+1', '-1+1', '@cmd', '\tx', '\rx', '＝1'])('neutralises the text %p for spreadsheets', async (text) => {
    const rows = parse(await csv([{ text }]), { relax_quotes: true }) as string[][];

    expect(rows[1]?.[0]).toBe(`'${text}`);
  });

  it('leaves negative numbers as they are', async () => {
    expect(await csv([{ number: -97.5 }])).toBe('text,number,flag\r\n,-97.5,\r\n');
  });
});
