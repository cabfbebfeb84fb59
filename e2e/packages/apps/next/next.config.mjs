// Nothing of Pairlink's needs configuring: the packages are plain ESM with types, server and browser alike.
export default {}
