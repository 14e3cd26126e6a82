class hbig(Integer $big, Integer $small) {
  notice($big)
  notice($small)
}
