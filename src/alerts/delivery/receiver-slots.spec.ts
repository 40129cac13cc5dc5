import { ReceiverSlots } from './receiver-slots.js';

describe(ReceiverSlots.name, () => {
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('lets a few sends to one receiver go at once and the next wait until one ends, in the order they asked', async () => {
    const sut = new ReceiverSlots(2);
    const started: string[] = [];
    const go = (name: string) => sut.take('https://a.example').then(() => started.push(name));

    void go('first');
    void go('second');
    void go('third');
    void go('fourth');
    await settled();
    expect(started).toEqual(['first', 'second']);
    expect(sut.full('https://a.example')).toBe(true);

    sut.give('https://a.example');
    await settled();
    expect(started).toEqual(['first', 'second', 'third']);

    sut.give('https://a.example');
    sut.give('https://a.example');
    await settled();
    expect(started).toEqual(['first', 'second', 'third', 'fourth']);
    expect(sut.full('https://a.example')).toBe(false);
  });

  it('never holds up another receiver behind one whose slots are all taken', async () => {
    const sut = new ReceiverSlots(1);
    await sut.take('https://hanging.example');
    const waited: boolean[] = [];

    void sut.take('https://hanging.example').then((wait) => waited.push(wait));
    waited.push(await sut.take('https://healthy.example'));
    await settled();

    expect(waited).toEqual([false]);
    expect(sut.full('https://hanging.example')).toBe(true);
  });

  it('says whether the caller had to wait for its slot', async () => {
    const sut = new ReceiverSlots(1);

    expect(await sut.take('r')).toBe(false);
    const second = sut.take('r');
    sut.give('r');
    expect(await second).toBe(true);
    sut.give('r');
    expect(sut.full('r')).toBe(false);
  });
});
