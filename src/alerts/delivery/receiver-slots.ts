/**
 * At most `perReceiver` sends to one receiver at once (docs/alerts.md#delivery), the others waiting
 * their turn in the order they asked; a receiver at its limit holds up no other receiver.
 */
export class ReceiverSlots {
  private readonly taken = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly perReceiver: number) {}

  /** Whether every slot of the receiver is taken (its next send would wait). */
  full(receiver: string): boolean {
    return (this.taken.get(receiver) ?? 0) >= this.perReceiver;
  }

  /** Resolves once a slot of the receiver is this caller's; true when it had to wait for it. */
  async take(receiver: string): Promise<boolean> {
    if (!this.full(receiver)) {
      this.taken.set(receiver, (this.taken.get(receiver) ?? 0) + 1);
      return false;
    }
    // The slot is handed over by give(), still counted as taken: no newcomer can jump the line.
    await new Promise<void>((resolve) => this.waiting.set(receiver, [...(this.waiting.get(receiver) ?? []), resolve]));
    return true;
  }

  /** Hands the slot to the next in line, or frees it. */
  give(receiver: string): void {
    const line = this.waiting.get(receiver);
    const next = line?.shift();
    if (line?.length === 0) this.waiting.delete(receiver);
    if (next) return next();
    const left = (this.taken.get(receiver) ?? 1) - 1;
    if (left > 0) this.taken.set(receiver, left);
    else this.taken.delete(receiver);
  }
}
