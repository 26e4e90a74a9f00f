import { createBroadPhase } from '../../../src/broadphase/index';
import { runChurn } from './churn';
const s = createBroadPhase('bipartite-sap'); const r = createBroadPhase('brute-force');
const origInsert = s.insert.bind(s), origUpdate = s.update.bind(s), origRemove = s.remove.bind(s);
let frame = 0;
const watch = new Set([376, 392]);
s.insert = (id, box, kind, off) => { if (watch.has(id)) console.log(frame, 'insert', id, kind, Array.from(box as ArrayLike<number>).slice(off??0,(off??0)+6)); origInsert(id, box, kind, off); };
s.update = (id, box, off) => { if (watch.has(id)) console.log(frame, 'update', id, Array.from(box as ArrayLike<number>).slice(off??0,(off??0)+6)); origUpdate(id, box, off); };
s.remove = (id) => { if (watch.has(id)) console.log(frame, 'remove', id); origRemove(id); };
const st = s.step.bind(s); s.step = () => { frame++; return st(); };
try { runChurn(s, r, { seed: 7, frames: 1000, maxId: 400, population: 120, staticShare: 0.3, moveShare: 0.3 }); } catch (e) { console.log(String(e)); }
