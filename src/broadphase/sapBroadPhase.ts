import { BroadPhaseBase } from './broadPhaseBase';
import { StaleRule } from './pairManager';
import { SweepAndPrune } from './sweepAndPrune';

/** The classic three-axis incremental sweep-and-prune over every box, one hashed pair manager. */
export class SapBroadPhase extends BroadPhaseBase {
  readonly name = 'sap';
  private readonly sap = new SweepAndPrune(this.table, this.pairs, false);
  private lastSwaps = 0;

  constructor() {
    super(StaleRule.Keep);
  }

  protected onInsert(id: number): void {
    this.sap.add(id);
  }

  protected onUpdate(id: number): void {
    this.sap.move(id);
  }

  protected onRemove(id: number): void {
    this.sap.remove(id, false);
  }

  protected onStep(): void {
    this.sap.flush();
    this.lastSwaps = this.sap.swaps;
    this.sap.swaps = 0;
  }

  counters(): Readonly<Record<string, number>> {
    return { swaps: this.lastSwaps, endpoints: this.sap.endpoints, 'hash look-ups': this.lastLookups };
  }
}
