/** Entry of the `cairn` command. Commands live in ./commands, one file each. */
export async function main(argv: string[]): Promise<number> {
  process.stdout.write(`cairn: not implemented yet (${argv.join(' ')})\n`);
  return 2;
}
