class loadorder::inner::other {
  notice('loadorder::inner::other')
}
