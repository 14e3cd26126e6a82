class complete { notice('complete loaded') }
