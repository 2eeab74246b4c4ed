import { z } from 'zod';

// Zod 4 compiles object parsers with `new Function` after probing whether
// eval is allowed; under the server's CSP (no 'unsafe-eval') that probe is a
// CSP violation in every page's console. Jitless parsing is plenty for the
// webapp's forms. Imported by main.tsx before any module that builds a
// schema.
z.config({ jitless: true });
