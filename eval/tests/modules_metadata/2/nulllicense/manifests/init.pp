class nulllicense { notice('nulllicense loaded') }
