class rubyonly {
  notice(rubyonly::shout('hi'))
}
