/** test/e2e/julia-tools.ts with a 2025-11-25 client (legacy negotiation). */
import { juliaToolTests } from './julia-tools.js';

juliaToolTests('legacy', '2025-11-25');
