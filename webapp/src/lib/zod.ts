import { z } from 'zod';

// Every schema imports z from here, never from 'zod' (eslint.config.js holds
// it to that), so zod loads with the first chunk that builds a schema (a
// form's, not the entry chunk: issue 38) and is configured before any schema
// parses.
//
// Zod 4 compiles object parsers with `new Function` after probing whether
// eval is allowed; under the server's CSP (no 'unsafe-eval') that probe is a
// CSP violation in every page's console. Jitless parsing is plenty for the
// webapp's forms.
z.config({ jitless: true });

export { z };
