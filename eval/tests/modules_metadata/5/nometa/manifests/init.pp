class nometa { notice('nometa loaded') }
