import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import { CapsulePool, MAX_POOL_WORKERS, ParticlePool, RayPool, hardwareThreads, sharedMemoryUnavailableReason } from '../core';
import type { HudLine } from '../ui/timingHud';

/**
 * The page's threads: a RayPool (src/query/rays/rayPool.ts) that the ray emitters trace on, made once
 * the page is cross-origin isolated, a CapsulePool (src/query/capsule/capsulePool.ts) that the capsule
 * crowd sweeps on and a ParticlePool (src/particles/particlePool.ts) that the particles move, ask their
 * caches and are netted on, each made when its system first asks for it; the "worker threads" slider
 * sizes them all live (default hardware threads − 1; 0: the main thread alone). Without isolation there
 * are no pools: everything runs on the main thread as before, and the HUD says why. Hits, contacts and
 * particles are bit for bit the same either way.
 */
export class PageRayThreads {
  /** The pool while it has workers to lend, else null (the systems then cast on the main thread). */
  pool: RayPool | null = null;
  /** The capsule pool while it has workers to lend, else null (capsulePoolForCrowd). */
  private capsulePool: CapsulePool | null = null;
  private capsulesAsked = false;
  /** The particle pool while it has workers to lend, else null (particlePoolForParticles). */
  private particlePool: ParticlePool | null = null;
  private particlesAsked = false;
  private createdParticles: ParticlePool | null = null;
  readonly settings = { workers: RayPool.defaultWorkers() };
  /** Why the page runs on one thread ('' while threads are possible). */
  private unavailable = sharedMemoryUnavailableReason() ?? '';
  private created: RayPool | null = null;
  private createdCapsules: CapsulePool | null = null;
  /** The resize under way (its loop applies the last value asked for), and whether one was asked for meanwhile. */
  private applying: Promise<void> | null = null;
  private pending = false;

  constructor(private readonly report: (message: string) => void) {}

  /** The slider's top: workers beside the main thread (at least 1, so a 1-core machine can try 2 threads). */
  readonly maxWorkers = Math.min(MAX_POOL_WORKERS, Math.max(hardwareThreads(), 2));
  private slider: Controller | null = null;

  /**
   * Adds the slider to the panel and, where threads can share memory, starts the pool; `sweep` is the
   * folder's button that benchmarks the scene at every thread count (threadSweep.ts).
   */
  install(gui: GUI, changed: () => void, sweep?: () => void): void {
    const folder = gui.addFolder('Threads');
    const slider = (this.slider = folder
      .add(this.settings, 'workers', 0, this.maxWorkers, 1)
      .name('worker threads (0: main only)')
      .onChange(() => void this.apply().then(changed)));
    const sweepButton = sweep === undefined ? null : folder.add({ sweep }, 'sweep').name(`benchmark 1 … ${this.maxWorkers + 1} threads`);
    if (this.unavailable !== '') {
      slider.disable();
      sweepButton?.disable();
      folder.close();
      return;
    }
    void RayPool.create({ workers: 0 }).then(
      (pool) => {
        this.created = pool;
        return this.apply().then(changed);
      },
      (error: unknown) => {
        this.unavailable = error instanceof Error ? error.message : String(error);
        slider.disable();
        sweepButton?.disable();
        this.report(`threads: ${this.unavailable}; the page runs on one thread`);
      },
    );
  }

  /**
   * The capsule pool for the crowd while it has workers, else null (the crowd then sweeps on this
   * thread). Made on the first ask once the ray pool is up, so a page without capsules starts no
   * capsule workers; the crowd sweeps on one thread until it is ready, or for good when it cannot
   * start (the rays keep their pool).
   */
  capsulePoolForCrowd(): CapsulePool | null {
    if (!this.capsulesAsked && this.created !== null) {
      this.capsulesAsked = true;
      void CapsulePool.create({ workers: 0 }).then(
        (pool) => {
          this.createdCapsules = pool;
          return this.apply();
        },
        (error: unknown) => this.report(`capsule threads: ${error instanceof Error ? error.message : String(error)}; the crowd sweeps on one thread`),
      );
    }
    return this.capsulePool;
  }

  /**
   * The particle pool while it has workers, else null (the particles then run on this thread). Made on
   * the first ask once the ray pool is up, as the capsule pool is.
   */
  particlePoolForParticles(): ParticlePool | null {
    if (!this.particlesAsked && this.created !== null) {
      this.particlesAsked = true;
      void ParticlePool.create({ workers: 0 }).then(
        (pool) => {
          this.createdParticles = pool;
          return this.apply();
        },
        (error: unknown) =>
          this.report(`particle threads: ${error instanceof Error ? error.message : String(error)}; the particles run on one thread`),
      );
    }
    return this.particlePool;
  }

  /** Sets the slider to `workers` and sizes the pools to it; resolves once they have them. */
  async setWorkers(workers: number): Promise<void> {
    this.settings.workers = workers;
    this.slider?.updateDisplay();
    // A resize already under way picks the new value up before it settles.
    await this.apply();
  }

  /** Sizes the pool to the slider (one resize at a time; the last value asked for wins). */
  private apply(): Promise<void> {
    const pool = this.created;
    if (pool === null) return Promise.resolve();
    if (this.applying !== null) {
      this.pending = true;
      return this.applying;
    }
    const resize = async (): Promise<void> => {
      try {
        do {
          this.pending = false;
          const workers = Math.round(this.settings.workers);
          await pool.setWorkers(workers);
          this.pool = pool.workers > 0 ? pool : null;
          const capsulePool = this.createdCapsules;
          if (capsulePool !== null) {
            await capsulePool.setWorkers(workers);
            this.capsulePool = capsulePool.workers > 0 ? capsulePool : null;
          }
          const particlePool = this.createdParticles;
          if (particlePool !== null) {
            await particlePool.setWorkers(workers);
            this.particlePool = particlePool.workers > 0 ? particlePool : null;
          }
        } while (this.pending);
      } catch (error) {
        this.report(`threads: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.applying = null;
      }
    };
    return (this.applying = resize());
  }

  /** The HUD's line on threads: how many trace rays and sweep the crowd, or why only one. */
  line(): HudLine {
    if (this.unavailable !== '')
      return {
        text: `1 thread: ${this.unavailable}`,
        detail: `1 thread: ${this.unavailable}; the ray worker pool needs SharedArrayBuffer (COOP same-origin + COEP require-corp)`,
      };
    const pool = this.created;
    const notices = [
      ...(pool?.notices ?? []),
      ...(this.createdCapsules?.notices ?? []).map((notice) => `capsule pool: ${notice}`),
      ...(this.createdParticles?.notices ?? []).map((notice) => `particle pool: ${notice}`),
    ];
    const last = notices.length > 0 ? ` · ${notices[notices.length - 1]}` : '';
    const threads = (this.pool?.workers ?? 0) + 1;
    const hardware = hardwareThreads();
    return {
      text: `${threads} thread${threads === 1 ? '' : 's'} for rays, crowd and particles · cross-origin isolated (${hardware} hardware threads)${last}`,
      detail:
        `cross-origin isolated: the ray emitters trace, the capsule crowd sweeps and the particles move on the main thread and ${threads - 1} pool worker${threads === 2 ? '' : 's'} ` +
        `each over shared memory (${hardware} hardware threads); other systems run on the main thread${notices.length > 0 ? `; ${notices.join('; ')}` : ''}`,
    };
  }
}
