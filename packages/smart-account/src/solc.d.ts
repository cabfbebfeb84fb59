// The part of solc-js (npm `solc`, which ships no types) that compileContracts.ts uses.
declare module 'solc' {
  const solc: {
    /** Standard JSON in, standard JSON out. */
    compile(input: string): string
    version(): string
  }
  export default solc
}
