// Entry point for the TypeORM CLI (`npm run migration:show`, `migration:run`, `migration:revert`).
// The options themselves live in src/database/data-source-options.ts, shared with the application.
export { default } from './src/database/data-source.js';
