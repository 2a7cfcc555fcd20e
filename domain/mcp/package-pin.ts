/**
 * The rule for commands of `stdio_curated` catalog entries: a command that fetches a package at run time (npx, uvx,
 * pipx run, docker run …) names an exact version, so every worker runs the code the operator reviewed, and a new
 * upload to a registry cannot change what runs with a workspace's secrets. Any other command (an absolute path, a
 * program the worker image installs) runs what the operator installed and is pinned by that image.
 */

type Ecosystem = 'npm' | 'python' | 'container';

interface Runner {
  ecosystem: Ecosystem;
  /** Argv words that name the runner (`npx`, or `npm exec`). */
  words: number;
  /** Options naming the package to fetch; the positional word is then the program in it (`uvx --from pkg prog`). */
  packageOptions: readonly string[];
  /** Options naming more packages to fetch beside the positional one (`uvx --with pkg`). */
  extraOptions: readonly string[];
  /** Options that take a value that is not a package (`uvx --python 3.12`). */
  valueOptions: readonly string[];
}

const NPM = {
  ecosystem: 'npm',
  packageOptions: ['-p', '--package'],
  extraOptions: [],
  valueOptions: ['-c', '--call', '-w'],
} as const;
const UV = {
  ecosystem: 'python',
  packageOptions: ['--from'],
  extraOptions: ['--with'],
  valueOptions: ['-p', '--python', '--index', '--index-url', '--extra-index-url', '--default-index'],
} as const;
const PIPX = {
  ecosystem: 'python',
  packageOptions: ['--spec'],
  extraOptions: [],
  valueOptions: ['--python', '--index-url'],
} as const;
const CONTAINER = {
  ecosystem: 'container',
  packageOptions: [],
  extraOptions: [],
  // An option missing here has its value read as the image, which then refuses the command unless it looks pinned.
  valueOptions: [
    ...['-e', '--env', '--env-file', '-v', '--volume', '--mount', '--name', '--network', '-p', '--publish'],
    ...['-w', '--workdir', '-u', '--user', '--entrypoint', '-l', '--label', '--platform', '--pull', '--memory'],
    ...['--cpus', '-m', '--add-host', '--cap-add', '--cap-drop', '--tmpfs'],
  ],
} as const;

function runnerOf(argv: readonly string[]): Runner | undefined {
  const program =
    (argv[0] ?? '')
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.(cmd|exe)$/i, '') ?? '';
  const sub = argv[1] ?? '';
  if (['npx', 'bunx', 'pnpx'].includes(program)) return { ...NPM, words: 1 };
  if ((program === 'npm' && sub === 'exec') || (['pnpm', 'yarn'].includes(program) && sub === 'dlx'))
    return { ...NPM, words: 2 };
  if (program === 'bun' && sub === 'x') return { ...NPM, words: 2 };
  if (program === 'uvx') return { ...UV, words: 1 };
  if (program === 'uv' && sub === 'tool' && argv[2] === 'run') return { ...UV, words: 3 };
  if (program === 'pipx' && sub === 'run') return { ...PIPX, words: 2 };
  if (['docker', 'podman'].includes(program) && sub === 'run') return { ...CONTAINER, words: 2 };
  return undefined;
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const NPM_SPEC = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(.+)$/i;
const PY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[A-Za-z0-9._,-]+\])?/;
const PY_VERSION = /^\d+(?:\.\d+)*(?:(?:a|b|rc|\.post|\.dev)\d+)*$/i;
const IMAGE_DIGEST = /@sha256:[0-9a-f]{64}$/;
const IMAGE_VERSION_TAG = /:v?\d+(?:\.\d+)*(?:-[0-9A-Za-z.]+)?$/;

/** True when a package spec of the ecosystem names one exact version. */
function isPinnedSpec(ecosystem: Ecosystem, spec: string): boolean {
  if (ecosystem === 'npm') {
    const match = NPM_SPEC.exec(spec);
    return match !== null && SEMVER.test(match[2]);
  }
  if (ecosystem === 'python') {
    const name = PY_NAME.exec(spec)?.[0];
    if (!name) return false;
    const rest = spec.slice(name.length);
    const version = rest.startsWith('==') ? rest.slice(2) : rest.startsWith('@') ? rest.slice(1) : undefined;
    return version !== undefined && PY_VERSION.test(version);
  }
  const lastPart = spec.split('/').pop() ?? '';
  return IMAGE_DIGEST.test(spec) || IMAGE_VERSION_TAG.test(lastPart);
}

/** The packages a runner command fetches, as written ('' when it names none). */
function fetchedPackages(argv: readonly string[], runner: Runner): string[] {
  const named: string[] = [];
  const extra: string[] = [];
  let positional = '';
  for (let i = runner.words; i < argv.length; i++) {
    const word = argv[i];
    if (!word.startsWith('-') || word === '--') {
      positional = (word === '--' ? argv[i + 1] : word) ?? '';
      break;
    }
    const name = word.startsWith('--') ? word.split('=')[0] : word;
    const inline = name !== word ? word.slice(name.length + 1) : undefined;
    if (![...runner.packageOptions, ...runner.extraOptions, ...runner.valueOptions].includes(name)) continue;
    const value = inline ?? argv[++i] ?? '';
    if (runner.packageOptions.includes(name)) named.push(value);
    if (runner.extraOptions.includes(name)) extra.push(value);
  }
  // With a package option the positional word is the program to run from it; otherwise it is the package itself.
  return [...(named.length > 0 ? named : [positional]), ...extra];
}

const EXAMPLE: Record<Ecosystem, string> = {
  npm: 'name@1.2.3',
  python: 'name==1.2.3',
  container: 'image:1.2.3 or image@sha256:…',
};

/** Why a stdio command is not pinned to exact package versions, or undefined when it is. */
export function unpinnedCommandProblem(argv: readonly string[]): string | undefined {
  const runner = runnerOf(argv);
  if (!runner) return undefined;
  const unpinned = fetchedPackages(argv, runner).find((spec) => !isPinnedSpec(runner.ecosystem, spec));
  if (unpinned === undefined) return undefined;
  const what = unpinned === '' ? 'names no package' : `fetches ${unpinned}`;
  return `${what} without an exact version: pin it (${EXAMPLE[runner.ecosystem]})`;
}
