import { fileURLToPath } from 'node:url';

/**
 * The one script that makes a pinned Python venv: `bash PYTHON_VENV DIR [COMMAND]` installs
 * DIR/requirements.txt into a venv in the cache (one per content of the file), and prints the
 * venv's (or COMMAND's) path.
 */
export const PYTHON_VENV = fileURLToPath(new URL('../python-venv.sh', import.meta.url));
