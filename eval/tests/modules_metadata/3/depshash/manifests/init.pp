class depshash { notice('depshash loaded') }
