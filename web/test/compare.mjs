// Compares answers of the page (numbers: the floats themselves) with `pebble query`'s JSON
// (numbers printed with the fewest digits that read back as the same float): equal when every
// number, read back as a float, is the page's float exactly (the sign of zero included) and
// everything else is identical. Returns the list of differences as "path: native vs page".
export function differences(native, page, path = '', out = []) {
  if (typeof native === 'number' && typeof page === 'number') {
    if (!Object.is(Math.fround(native), page)) out.push(`${path}: ${native} vs ${page}`);
  } else if (Array.isArray(native) && Array.isArray(page)) {
    if (native.length !== page.length) out.push(`${path}: ${native.length} vs ${page.length} entries`);
    for (let i = 0; i < Math.min(native.length, page.length); ++i) differences(native[i], page[i], `${path}/${i}`, out);
  } else if (native && page && typeof native === 'object' && typeof page === 'object') {
    const keys = new Set([...Object.keys(native), ...Object.keys(page)]);
    for (const k of keys) {
      if (!(k in native) || !(k in page)) out.push(`${path}/${k}: ${k in native ? 'missing in the page' : 'not in native'}`);
      else differences(native[k], page[k], `${path}/${k}`, out);
    }
  } else if (native !== page) {
    out.push(`${path}: ${JSON.stringify(native)} vs ${JSON.stringify(page)}`);
  }
  return out;
}
