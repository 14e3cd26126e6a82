class loadorder::inner {
  notice('loadorder::inner')
}

# Found in inner.pp after inner/deep.pp is looked for and does not exist.
class loadorder::inner::deep {
  notice('loadorder::inner::deep')
}
