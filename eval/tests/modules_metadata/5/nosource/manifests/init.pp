class nosource { notice('nosource loaded') }
