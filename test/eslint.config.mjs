// The tools' lint rules (see ../eslint.tools.mjs), not n8n's node rules of the root config.
export { default } from '../eslint.tools.mjs';
