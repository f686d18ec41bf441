/**
 * Preloaded into the API by the RSS measure alone (`node --expose-gc --import`): on SIGUSR2 it
 * collects all the garbage it can, then says so on stderr, so the RSS read after it is the live
 * data's. Nothing else of the API changes.
 */
type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let collections = 0;
process.on('SIGUSR2', () => {
  (globalThis as unknown as { gc: Gc }).gc({
    type: 'major',
    execution: 'sync',
    flavor: 'last-resort',
  });
  process.stderr.write(`bench: garbage collected ${++collections}\n`);
});
