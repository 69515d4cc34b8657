/** test/e2e/julia-faults.ts with a 2026-07-28 client (auto negotiation). */
import { juliaFaultTests } from './julia-faults.js';

juliaFaultTests('auto', '2026-07-28');
