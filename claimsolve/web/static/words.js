// The page's words, as claimsolve/words.py writes them on the Python side.

// `n` and `word`, in the plural unless `n` is 1 (`plural`, else `word` + "s"): "1 tower", "3 towers"
export const counted = (n, word, plural) => `${n} ${n === 1 ? word : plural || `${word}s`}`;
