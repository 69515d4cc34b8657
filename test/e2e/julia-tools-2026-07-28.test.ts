/** test/e2e/julia-tools.ts with a 2026-07-28 client (auto negotiation). */
import { juliaToolTests } from './julia-tools.js';

juliaToolTests('auto', '2026-07-28');
