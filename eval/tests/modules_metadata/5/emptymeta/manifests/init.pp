class emptymeta { notice('emptymeta loaded') }
